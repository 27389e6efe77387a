/**
 * No production file (src/**\/*.{ts,tsx} without tests and src/test-support) over 400 lines: a
 * file that long is usually two things, and is split along a line of the domain (docs/style.md).
 * Data is exempt (a field catalog, a seed set): such a file says so in its first line, a comment
 * starting `// Data:` with what it holds. Every file over the limit is printed with its length.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataMarker, isData, lineCount, maxLines, productionFiles } from './code-shape';

const root = join(import.meta.dirname, '..');
const over: { path: string; lines: number }[] = [];
const data: { path: string; lines: number }[] = [];
for (const path of productionFiles(root)) {
  const text = readFileSync(join(root, path), 'utf8');
  const lines = lineCount(text);
  if (lines <= maxLines) continue;
  (isData(text) ? data : over).push({ path, lines });
}

for (const file of data) console.log(`file-size: ${file.path} ${file.lines} lines (data)`);
if (over.length > 0) {
  console.error(
    `file-size: ${over.length} production files are over ${maxLines} lines. Split each along a line of the domain; a file of data says so in its first line (${dataMarker} …).`,
  );
  for (const file of over.sort((a, b) => b.lines - a.lines))
    console.error(`  ${file.path}:${maxLines + 1}  ${file.lines} lines`);
  process.exit(1);
}
