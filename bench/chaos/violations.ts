/** One broken promise: which check, about what (a journey, a payment, a workflow, an event), and how. */
export interface Violation {
  check: string;
  subject: string;
  detail: string;
}

export class Violations {
  readonly list: Violation[] = [];

  add(check: string, subject: string, detail: string): void {
    this.list.push({ check, subject, detail });
  }
}
