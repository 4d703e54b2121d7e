// Rewrites the expected files of the golden tests from the current parsers. Review the diff before committing:
//   npx tsx tests/core/schemas/update-golden.ts [LogType ...]
import { writeFileSync } from 'node:fs';
import { goldenCases, runGolden } from './golden';

const only = process.argv.slice(2);
for (const c of goldenCases()) {
  if (only.length && !only.includes(c.logType)) continue;
  writeFileSync(c.expectedFile, runGolden(c).join('\n') + '\n');
}
