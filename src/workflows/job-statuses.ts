/** BankflowStatus of the scheduled jobs' and the attempts sync's workflows; docs/support.md says what each means. */
export const jobStatuses = {
  running: 'running',
  listing: 'listing',
  completed: 'completed',
  stored: 'stored',
  nothingToDo: 'nothing_to_do',
} as const;
