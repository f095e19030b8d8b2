import { formatReport } from './report.js';
import { runChaos } from './harness.js';
import { parseChaosArgs } from './options.js';

let options;
try {
  options = parseChaosArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const result = await runChaos({
  ...options,
  log: (line) => console.error(line),
});
console.log(formatReport(result));
if (result.dir) console.error(`\nThe run's database and logs are kept in ${result.dir}`);
process.exit(result.violations.length === 0 ? 0 : 1);
