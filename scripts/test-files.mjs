// Prints the test files of one loop (scripts/test-loops.mjs), for `tsx --test`: node scripts/test-files.mjs unit|build
import { loopFiles } from './test-loops.mjs';

const loop = process.argv[2];
if (loop === 'unit' || loop === 'build') console.log(loopFiles(loop).join('\n'));
else {
  console.error('usage: node scripts/test-files.mjs unit|build');
  process.exitCode = 2;
}
