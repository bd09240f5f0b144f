import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The text of a PDF, page after page, extracted by unpdf (Mozilla's PDF.js). unpdf is ESM-only and
 * loads PDF.js with a dynamic import, which jest's module system cannot run: it runs in a plain
 * Node.js child process, the PDF on its standard input.
 */
export function pdfText(pdf: Buffer): Promise<string> {
  const script = `import { extractText, getDocumentProxy } from 'unpdf';
    const chunks = []; for await (const c of process.stdin) chunks.push(c);
    const doc = await getDocumentProxy(new Uint8Array(Buffer.concat(chunks)));
    const { text } = await extractText(doc, { mergePages: true });
    process.stdout.write(text);`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${error.message}\n${stderr}`));
      else resolve(stdout);
    });
    child.stdin!.end(pdf);
  });
}
