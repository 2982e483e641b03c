// The build loop, `npm test`'s last step: every test file outside the unit loop, from dist/, each
// in a process of its own, CONCURRENCY at a time, in test-loops.mjs's order (`node --test` would
// sort them by name). Most of these files wait on processes, sockets, databases or a browser more
// than they compute, so they run more at a time than the machine has cores.
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { loopFiles } from './test-loops.mjs';

const CONCURRENCY = 4;

const stream = run({ files: loopFiles('build'), concurrency: CONCURRENCY });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
