import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/**
 * The code cites the rules it follows as `SPEC §N` and `DECISIONS §N`, and docs/decisions.md
 * states them under headings carrying those tokens. Every citation in the source folders must name
 * a heading there, and no comment may send the reader to a tracker issue by number: a clone of the
 * repository has neither the tracker nor any file but its own.
 */

const ROOT = new URL('../../../', import.meta.url).pathname;
const DECISIONS_FILE = 'docs/decisions.md';
const SCANNED = ['src', 'test', 'web', 'scripts', 'bench'];
const SKIPPED = [/^test\/fixtures\//, /(^|\/)node_modules\//, /(^|\/)dist\//];
const SCRIPT = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs']);
const BINARY = new Set(['.zip', '.gz', '.png', '.jpg', '.jpeg', '.gif', '.ico', '.woff', '.woff2', '.db', '.pdf']);

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
}

/** The files to scan: the tracked ones under SCANNED, or every file there outside a git checkout. */
function sourceFiles(): string[] {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z', '--', ...SCANNED], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\0')
      .filter((file) => file !== '');
  } catch {
    files = SCANNED.flatMap((dir) => walk(join(ROOT, dir)));
  }
  return files.filter((file) => !SKIPPED.some((pattern) => pattern.test(file)) && !BINARY.has(extname(file).toLowerCase()));
}

function walk(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') ? [] : walk(path);
    return entry.isFile() ? [relative(ROOT, path)] : [];
  });
}

function readText(file: string): string | undefined {
  const bytes = readFileSync(join(ROOT, file));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function lineText(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? text.length : end).trim();
}

/** The headings of docs/decisions.md that a citation can name, as "SPEC §7" or "DECISIONS §1.4". */
function headings(markdown: string): string[] {
  // "### SPEC §7 — Errors", "### §4. Quota and keys (DECISIONS §4)": the token anywhere in the heading.
  return [...markdown.matchAll(/^#{2,6} .*?\b(SPEC|DECISIONS) §(\d+(?:\.\d+)*)\b/gm)].map((m) => `${m[1]} §${m[2]}`);
}

/** `2–4` → [2, 3, 4]; `1.1–1.3` → [1.1, 1.2, 1.3]; undefined when the two ends do not make a range. */
function expandRange(from: string, to: string): string[] | undefined {
  const a = from.split('.').map(Number);
  const b = to.split('.').map(Number);
  if (b.length === 1 && a.length > 1) b.unshift(...a.slice(0, -1));
  if (a.length !== b.length || a.slice(0, -1).join('.') !== b.slice(0, -1).join('.')) return undefined;
  const first = a.at(-1)!;
  const last = b.at(-1)!;
  if (last < first) return undefined;
  const prefix = a.slice(0, -1).map((n) => `${n}.`).join('');
  return Array.from({ length: last - first + 1 }, (_, i) => `${prefix}${first + i}`);
}

/**
 * Every `§N` of a text with the document it cites: the nearest `SPEC`, `DECISIONS` or `RFC n`
 * before it (within a sentence's reach, across comment line breaks), so `DECISIONS §1–§3 and §8`
 * cites §1, §2, §3 and §8 of DECISIONS and `RFC 9110 §8.6` is left alone. A range stands for each
 * section in it.
 */
function citations(text: string): { index: number; cited: string[]; written: string }[] {
  const found: { index: number; cited: string[]; written: string }[] = [];
  for (const m of text.matchAll(/§(\d+(?:\.\d+)*)(?:\s*[–-]\s*§(\d+(?:\.\d+)*)|[–-](\d+(?:\.\d+)*))?/g)) {
    const before = text.slice(Math.max(0, m.index - 160), m.index);
    const owner = [...before.matchAll(/\b(SPEC|DECISIONS|RFC\s*\d+)\b/g)].at(-1)?.[1];
    if (owner !== 'SPEC' && owner !== 'DECISIONS') continue;
    const end = m[2] ?? m[3];
    const numbers = end === undefined ? [m[1]!] : expandRange(m[1]!, end);
    const written = `${owner} ${m[0]}`;
    found.push({ index: m.index, written, cited: numbers === undefined ? [written] : numbers.map((n) => `${owner} §${n}`) });
  }
  return found;
}

/** The comment text of a file, as [offset, text] pieces; the whole text for Markdown. */
function comments(file: string, text: string): [number, string][] {
  const ext = extname(file).toLowerCase();
  if (ext === '.md') return [[0, text]];
  if (ext === '.css') return [...text.matchAll(/\/\*[\s\S]*?\*\//g)].map((m) => [m.index, m[0]]);
  if (ext === '.html' || ext === '.svg' || ext === '.xml') return [...text.matchAll(/<!--[\s\S]*?-->/g)].map((m) => [m.index, m[0]]);
  if (!SCRIPT.has(ext)) return [];
  // The parser finds the strings, templates and regular expressions; blanked out, what is left
  // of `//` and `/*` starts a comment.
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ext.startsWith('.t') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const literal = new Set([
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.TemplateMiddle,
    ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.RegularExpressionLiteral,
  ]);
  const blanked = text.split('');
  const visit = (node: ts.Node): void => {
    if (literal.has(node.kind)) {
      for (let i = node.getStart(source); i < node.end; i += 1) if (blanked[i] !== '\n') blanked[i] = ' ';
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...blanked.join('').matchAll(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g)].map((m) => [m.index, text.slice(m.index, m.index + m[0].length)]);
}

/**
 * Tracker issue numbers in comment text: the word issue followed by a number (with or without a
 * `#`), `gh-` and a number, and a bare `#` with two or more digits standing as a word. Not a
 * colour (only style sheets write those in comments), a URL fragment, an HTML entity, a private
 * field such as #cache, or an issue of another project written owner/name#123.
 */
function issueReferences(file: string, comment: string): { index: number; text: string }[] {
  const patterns = [/\bissues?\s*#?\d+\b/gi, /\bgh-\d+\b/gi];
  if (extname(file).toLowerCase() !== '.css') patterns.push(/(?<=^|[\s([{,;])#\d{2,}\b(?![\w-])/g);
  const hits = patterns.flatMap((pattern) => [...comment.matchAll(pattern)].map((m) => ({ index: m.index, text: m[0] })));
  hits.sort((a, b) => a.index - b.index || b.text.length - a.text.length);
  // The word with a `#` and its number is one reference, not also a bare one.
  return hits.filter((hit, i) => i === 0 || hit.index >= hits[i - 1]!.index + hits[i - 1]!.text.length);
}

const decisions = readFileSync(join(ROOT, DECISIONS_FILE), 'utf8');
const known = new Set(headings(decisions));

function unresolvedCitations(file: string, text: string): Finding[] {
  return citations(text)
    .filter((c) => c.cited.some((cited) => !known.has(cited)))
    .map((c) => ({ file, line: lineOf(text, c.index), text: `${c.written} (${c.cited.filter((cited) => !known.has(cited)).join(', ')} has no heading)` }));
}

function trackerIssues(file: string, text: string): Finding[] {
  // A hit in a comment is a hit in the whole text: only files with one are parsed.
  if (issueReferences(file, text).length === 0) return [];
  return comments(file, text).flatMap(([offset, comment]) =>
    issueReferences(file, comment).map((hit) => ({ file, line: lineOf(text, offset + hit.index), text: `"${hit.text}" in: ${lineText(text, offset + hit.index)}` })),
  );
}

function report(findings: Finding[]): string {
  return findings.map((f) => `${f.file}:${f.line}: ${f.text}`).join('\n');
}

test('docs/decisions.md has one heading for each section of the specification and of the rulings', () => {
  const all = headings(decisions);
  assert.deepEqual(all.filter((h, i) => all.indexOf(h) !== i), [], 'no heading twice');
  const expected = [
    ...Array.from({ length: 9 }, (_, i) => `SPEC §${i + 1}`),
    ...Array.from({ length: 17 }, (_, i) => `DECISIONS §${i + 1}`),
    ...Array.from({ length: 7 }, (_, i) => `DECISIONS §1.${i + 1}`),
  ];
  assert.deepEqual(expected.filter((h) => !known.has(h)), [], 'missing headings');
});

test('when a source file cites SPEC §N or DECISIONS §N, then docs/decisions.md has that heading', () => {
  const files = sourceFiles();
  assert.ok(files.some((file) => file.startsWith('src/')) && files.length > 100, `found the source files (${files.length})`);
  let count = 0;
  const bad: Finding[] = [];
  for (const file of files) {
    const text = readText(file);
    if (text === undefined) continue;
    count += citations(text).length;
    bad.push(...unresolvedCitations(file, text));
  }
  assert.ok(count > 100, `found the citations (${count})`);
  assert.equal(bad.length, 0, `citations with no heading in ${DECISIONS_FILE}:\n${report(bad)}`);
});

test('when a comment names a tracker issue by number, then the test names its file and line', () => {
  const bad: Finding[] = [];
  for (const file of sourceFiles()) {
    const text = readText(file);
    if (text !== undefined) bad.push(...trackerIssues(file, text));
  }
  assert.equal(bad.length, 0, `tracker issue numbers in comments (say what they mean instead):\n${report(bad)}`);
});

test('the scanner reads lists, ranges and wrapped comments, and leaves colours, fragments and fields alone', () => {
  const S = '§';
  const text = [
    `/** SPEC ${S}5, ${S}7 and DECISIONS ${S}1–${S}3 and ${S}8 (RFC 9110 ${S}13.1.2), DECISIONS ${S}1.2–1.4; DECISIONS`,
    ` * ${S}99 and SPEC ${S}3/${S}10. */`,
  ].join('\n');
  assert.deepEqual(
    citations(text).flatMap((c) => c.cited),
    ['SPEC 5', 'SPEC 7', 'DECISIONS 1', 'DECISIONS 2', 'DECISIONS 3', 'DECISIONS 8', 'DECISIONS 1.2', 'DECISIONS 1.3', 'DECISIONS 1.4', 'DECISIONS 99', 'SPEC 3', 'SPEC 10'].map(
      (cited) => cited.replace(' ', ` ${S}`),
    ),
  );
  assert.deepEqual(
    unresolvedCitations('x.ts', text).map((f) => [f.line, f.text]),
    [
      [2, `DECISIONS ${S}99 (DECISIONS ${S}99 has no heading)`],
      [2, `SPEC ${S}10 (SPEC ${S}10 has no heading)`],
    ],
  );

  const I = 'issue';
  const code = [
    `// The page (${I} 40), see #39 and ${I.toUpperCase()} #42.`,
    `const colour = '#1f4e79'; const grey = '#333'; // nodejs/node#65446, https://x.test/a#12, &#39;`,
    'class A { #cache = 1; get() { return this.#cache; } }',
    `const s = 'not a comment: ${I} 7';`,
    '/* row',
    ` * gh-12 */`,
  ].join('\n');
  assert.deepEqual(
    trackerIssues('x.ts', code).map((f) => [f.line, f.text.split('"')[1]]),
    [
      [1, `${I} 40`],
      [1, '#39'],
      [1, `${I.toUpperCase()} #42`],
      [6, 'gh-12'],
    ],
  );
  assert.deepEqual(trackerIssues('x.css', '/* #333 and #123456 */ a { color: #999; }'), []);
});
