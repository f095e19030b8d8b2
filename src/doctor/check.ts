import { z } from 'zod';

/** The processes doctor can check for: each reads only part of the configuration. */
export const doctorRoles = ['worker', 'receiver', 'codec', 'starter', 'api'] as const;
export const doctorRoleSchema = z.enum([...doctorRoles, 'all']);
export type DoctorRole = z.infer<typeof doctorRoleSchema>;

/** One line of the report: what was checked, what was found, and when it failed, what to do. */
export const checkResultSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  detail: z.string(),
  fix: z.string().optional(),
});
export type CheckResult = z.infer<typeof checkResultSchema>;

export const pass = (name: string, detail: string): CheckResult => ({ name, ok: true, detail });
export const fail = (name: string, detail: string, fix: string): CheckResult => ({
  name,
  ok: false,
  detail,
  fix,
});

/** A check that throws fails with the error's message as its detail, and the fix given. */
export async function attempt(
  name: string,
  fix: string,
  check: () => Promise<CheckResult>,
): Promise<CheckResult> {
  try {
    return await check();
  } catch (error) {
    return fail(name, (error as Error).message, fix);
  }
}
