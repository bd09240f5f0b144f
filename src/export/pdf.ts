import type { Browser } from 'playwright-core';
import { chromiumPath, isExecutable, launchChromium } from '../chromium';
import { message } from '../i18n';
import { AppError } from '../services/errors';

/** A PDF cannot be made here: no Chromium to render it (the other formats still work). */
export class PdfUnavailableError extends AppError {
  readonly code = 'PDF_UNAVAILABLE';
}

/** Renders at a time; more wait their turn (each holds a page of the one browser). */
const CONCURRENT = 2;

/**
 * HTML to PDF with headless Chromium (the one src/chromium.ts names: Debian's `chromium`,
 * or CHROMIUM_PATH). The browser starts at the first PDF and stays up for the next ones; a
 * machine without it answers PDF_UNAVAILABLE, saying what to install.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | null = null;
  private running = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly executablePath: string = chromiumPath()) {}

  private launch(): Promise<Browser> {
    if (!isExecutable(this.executablePath)) {
      throw new PdfUnavailableError(message('export.pdfNoChromium', { path: this.executablePath }));
    }
    if (!this.browser) {
      this.browser = launchChromium(this.executablePath).then((b) => {
        b.on('disconnected', () => { this.browser = null; });
        return b;
      }, (e: unknown) => {
        this.browser = null;
        throw new PdfUnavailableError(message('export.pdfNotStarted', { path: this.executablePath, detail: e instanceof Error ? e.message.split('\n')[0] : String(e) }));
      });
    }
    return this.browser;
  }

  async render(html: string): Promise<Buffer> {
    const browser = await this.launch();
    if (this.running >= CONCURRENT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    const page = await browser.newPage();
    try {
      // No request leaves the page: the statement is self-contained.
      await page.route('**/*', (route) => route.abort());
      await page.setContent(html, { waitUntil: 'load' });
      return await page.pdf({ format: 'A4', landscape: true, printBackground: true, preferCSSPageSize: true });
    } finally {
      await page.close().catch(() => undefined);
      this.running--;
      this.waiting.shift()?.();
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close();
  }
}
