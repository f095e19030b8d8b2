import { spawn } from 'node:child_process';
import { databases, type DatabaseAccess } from './server-config.js';

export interface SchemaStep {
  database: string;
  args: string[];
}

const schemaNames = {
  [databases.default]: 'postgresql/v12/temporal',
  [databases.visibility]: 'postgresql/v12/visibility',
} as const;

/**
 * The schema tool's steps for the default store and SQL visibility, each safe to run again: the database is
 * created only when missing, `setup-schema -v 0.0` only adds the version tables, and `update-schema` applies
 * the versions a database does not have yet from the schemas compiled into the tool.
 */
export function schemaSteps(access: DatabaseAccess): SchemaStep[] {
  return Object.values(databases).flatMap((database) => {
    const connect = [
      '--plugin',
      'postgres12',
      '--endpoint',
      access.host,
      '--port',
      String(access.port),
      '--user',
      access.user,
      '--database',
      database,
    ];
    return [
      { database, args: [...connect, 'create-database'] },
      { database, args: [...connect, 'setup-schema', '--version', '0.0'] },
      { database, args: [...connect, 'update-schema', '--schema-name', schemaNames[database]] },
    ];
  });
}

/** Runs every step in order; the password goes through the tool's SQL_PASSWORD, never the command line. */
export async function applySchema(sqlTool: string, access: DatabaseAccess): Promise<void> {
  for (const step of schemaSteps(access)) {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(sqlTool, step.args, {
        env: { ...process.env, SQL_PASSWORD: access.password },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2_000));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.once('error', reject);
      child.once('close', (exitCode) => resolve({ code: exitCode, output }));
    });
    if (code !== 0) {
      throw new Error(
        `the Temporal schema step \`${step.args.slice(-3).join(' ')}\` on ${step.database} exited with code ${code}: ${output.trim()}`,
      );
    }
  }
}
