import http from 'node:http';
import { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../src/chromium';
import { parseOrigins } from '../../src/config';
import { startTestApi, TestApi } from '../support/api';

/**
 * A browser frontend on another origin calling the API (CORS_ORIGINS), in headless Chromium
 * (src/chromium.ts): the listed origin gets its preflight answered and reads the answer; any other
 * origin is refused by the browser, since the API sends it no CORS header. CSRF prevention stays for simple requests.
 */
let api: TestApi;
let browser: Browser;
let pages: http.Server;
/** The frontend's origin (listed), and the same page reached by another name (not listed). */
let listed: string;
let unlisted: string;

const PAGE = '<!doctype html><html><head><meta charset="utf-8"><title>Frontend</title></head><body>frontend</body></html>';

beforeAll(async () => {
  pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  const { port } = pages.address() as AddressInfo;
  listed = `http://localhost:${port}`;
  unlisted = `http://127.0.0.1:${port}`;
  api = await startTestApi({ corsOrigins: [listed, 'https://other.example.gov.br'] });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => pages?.close(resolve));
});

/** Run `fetch` to the API in a page of `origin`, as a frontend's script would. */
async function fetchFrom(origin: string, init: { method: 'GET' | 'POST'; query: string; headers: Record<string, string> }) {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/app`);
    return await page.evaluate(async ({ url, init }) => {
      try {
        const target = init.method === 'GET' ? `${url}?query=${encodeURIComponent(init.query)}` : url;
        const res = await fetch(target, { method: init.method, headers: init.headers, body: init.method === 'POST' ? JSON.stringify({ query: init.query }) : undefined });
        return { status: res.status, body: await res.json(), requestId: res.headers.get('x-request-id') };
      } catch (e) {
        return { failed: String(e) };
      }
    }, { url: api.url, init });
  } finally {
    await page.close();
  }
}

test('a page of a listed origin calls the API with its token, and reads the answer and its request id', async () => {
  const token = await api.token();
  const res = await fetchFrom(listed, { method: 'POST', query: '{ producers { totalCount } }', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': 'from-the-frontend' } });
  expect(res).toEqual({ status: 200, body: { data: { producers: { totalCount: 0 } } }, requestId: 'from-the-frontend' });
  const get = await fetchFrom(listed, { method: 'GET', query: '{ producers { totalCount } }', headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } });
  expect(get).toMatchObject({ status: 200, body: { data: { producers: { totalCount: 0 } } } });
});

test('a page of an origin not listed is refused by the browser', async () => {
  const token = await api.token();
  const res = await fetchFrom(unlisted, { method: 'POST', query: '{ producers { totalCount } }', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
  expect(res).toEqual({ failed: 'TypeError: Failed to fetch' });
});

describe('over HTTP', () => {
  const preflight = (origin: string) => fetch(api.url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,apollo-require-preflight' },
  });

  test('a preflight from a listed origin: 204 with the methods and headers a frontend needs', async () => {
    const res = await preflight('https://other.example.gov.br');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://other.example.gov.br');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST');
    expect(res.headers.get('access-control-allow-headers')!.split(',')).toEqual(expect.arrayContaining(['authorization', 'content-type', 'apollo-require-preflight', 'accept-language', 'traceparent']));
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toContain('Origin');
  });

  test('a preflight from another origin gets no CORS header', async () => {
    const res = await preflight('https://evil.example.com');
    const cors = [...res.headers.keys()].filter((h) => h.startsWith('access-control-'));
    expect(cors).toEqual([]);
    expect(res.status).toBeGreaterThanOrEqual(400);
  });

  test('every answer varies by Origin, to another origin or none too: a cache never gives one origin\'s answer to another', async () => {
    const token = await api.token();
    const ask = (origin?: string) => fetch(`${api.url}?query=${encodeURIComponent('{ producers { totalCount } }')}`, {
      headers: { ...(origin ? { origin } : {}), authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' },
    });
    for (const origin of [listed, 'https://evil.example.com', undefined]) {
      const res = await ask(origin);
      expect(res.status).toBe(200);
      expect(res.headers.get('vary')?.split(/,\s*/)).toContain('Origin');
      expect(res.headers.get('access-control-allow-origin')).toBe(origin === listed ? listed : null);
    }
    expect((await preflight('https://evil.example.com')).headers.get('vary')?.split(/,\s*/)).toContain('Origin');
  });

  test('simple requests stay refused by CSRF prevention, even from a listed origin', async () => {
    const token = await api.token();
    const get = await fetch(`${api.url}?query=${encodeURIComponent('{ producers { totalCount } }')}`, { headers: { origin: listed, authorization: `Bearer ${token}` } });
    expect(get.status).toBe(400);
    expect(JSON.stringify(await get.json())).toContain('Cross-Site Request Forgery');
    const textPlain = await fetch(api.url, { method: 'POST', headers: { origin: listed, 'content-type': 'text/plain', authorization: `Bearer ${token}` }, body: JSON.stringify({ query: '{ producers { totalCount } }' }) });
    expect(textPlain.status).toBe(400);
  });

  test('CORS_ORIGINS takes exact origins only', () => {
    expect(parseOrigins('https://a.gov.br, http://localhost:5173')).toEqual({ origins: ['https://a.gov.br', 'http://localhost:5173'], invalid: null });
    expect(parseOrigins('https://a.gov.br/app').invalid).toBe('https://a.gov.br/app');
    expect(parseOrigins('a.gov.br').invalid).toBe('a.gov.br');
    expect(parseOrigins(undefined)).toEqual({ origins: [], invalid: null });
  });
});
