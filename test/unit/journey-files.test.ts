import path from 'node:path';
import { runtimeFilesOf } from '../helpers/module-imports.js';

// A journey is read in one sitting: its workflow and everything it loads at run time, in a handful of files.
describe('the files a journey is read in', () => {
  it.each(['src/workflows/payment/workflow.ts', 'src/workflows/enrollment/workflow.ts'])(
    '%s loads at most 12 files of src/ at run time',
    (workflow) => {
      const files = [...runtimeFilesOf(path.resolve(workflow))].map((file) => path.relative('.', file));
      expect(files.every((file) => file.startsWith('src/'))).toBe(true);
      expect(files.length).toBeLessThanOrEqual(12);
      expect(files).toContain(workflow);
    },
  );
});
