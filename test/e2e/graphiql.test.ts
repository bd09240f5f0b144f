import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../src/chromium';
import { EXAMPLE_OPERATIONS } from '../../src/http/graphiql-examples';
import { startTestApi, TestApi } from '../support/api';

// GraphiQL in real headless Chromium (the one src/chromium.ts names), with every request that is
// not to this machine aborted: the page must work on a closed network (the README).

/** Screenshots for a person to look at, outside the repository. */
const SCREENSHOT = process.env.GRAPHIQL_SCREENSHOT ?? path.join(os.tmpdir(), 'selo-graphiql.png');

let api: TestApi;
let browser: Browser;
const offMachine: string[] = [];
/**
 * Script errors and failed loads of the page being tested (reset by `open`). Before a token is
 * given, GraphiQL's schema introspection is refused with 401 (every operation needs a token,
 * the access rules, README "Tokens"): those are the only failures allowed, and only where no token was given at load.
 */
let pageErrors: string[] = [];
const besidesUnauthorized = () => pageErrors.filter((e) => !/status of 401 \(Unauthorized\)/.test(e));

beforeAll(async () => {
  api = await startTestApi();
  await api.ok(`mutation { upsertMunicipalities(input: [{ ibgeCode: "2611606", name: "Recife", semiarid: false }, { ibgeCode: "2910800", name: "Feira de Santana", semiarid: true }]) { ibgeCode } }`);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/**
 * A page in a fresh browser context (its own local storage: GraphiQL keeps tabs and headers
 * there), where every request not to this machine is aborted and recorded.
 */
async function open(path: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.route('**/*', async (route) => {
    const { hostname } = new URL(route.request().url());
    // A request still in flight when its page closes makes continue/abort fail: nothing to do then.
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue().catch(() => undefined);
    offMachine.push(route.request().url());
    return route.abort().catch(() => undefined);
  });
  const page = await context.newPage();
  page.on('close', () => { context.close().catch(() => undefined); });
  pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') pageErrors.push(m.text()); });
  await page.goto(api.url.replace(/\/graphql$/, path));
  await page.waitForSelector('.graphiql-container', { timeout: 30000 });
  return page;
}

/** Set the text of one of GraphiQL's CodeMirror editors, as typing it would. */
async function setEditor(page: Page, selector: string, value: string): Promise<void> {
  await page.locator(`${selector} .CodeMirror`).first().evaluate((el, v) => {
    (el as unknown as { CodeMirror: { setValue(s: string): void } }).CodeMirror.setValue(v);
  }, value);
}

async function editorText(page: Page, selector: string): Promise<string> {
  return page.locator(`${selector} .CodeMirror`).first().evaluate((el) => (el as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());
}

/** Press the run button once GraphiQL has taken in the edited document (the tab takes its name). */
async function run(page: Page, operationName: string): Promise<void> {
  await page.locator('.graphiql-tab-active').getByText(operationName, { exact: true }).waitFor({ timeout: 10000 });
  await page.locator('.graphiql-execute-button').click();
}

test('the page loads from this server alone, with the saved example operations as tabs', async () => {
  const res = await fetch(api.url, { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/html');
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  const html = await res.text();
  expect(html).not.toMatch(/https?:\/\/(?!localhost|127\.0\.0\.1)/);

  const page = await open('/graphql');
  const tabs = await page.locator('.graphiql-tab .graphiql-tab-button').allTextContents();
  expect(tabs.map((t) => t.trim())).toEqual(EXAMPLE_OPERATIONS.map((op) => op.name));
  // The first tab holds the producer's month, its variables beside it.
  expect(await editorText(page, '.graphiql-query-editor')).toContain('query ProducerMonth(');
  // The header editor is open and shows how to give the token.
  expect(await editorText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)')).toBe('{\n  "Authorization": "Bearer <token>"\n}');
  await page.close();
  expect(offMachine).toEqual([]);
  expect(besidesUnauthorized()).toEqual([]);
});

test('with a token typed in the header editor, a query runs and its result is shown', async () => {
  const page = await open('/graphql');
  const token = await api.token({ role: 'AUDITOR' });
  await setEditor(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)', JSON.stringify({ Authorization: `Bearer ${token}` }, null, 2));
  await setEditor(page, '.graphiql-query-editor', 'query Lookup {\n  municipality(ibgeCode: "2910800") {\n    name\n    state\n    region\n    semiarid\n    priorityRegion\n  }\n}\n');
  await run(page, 'Lookup');
  const result = page.locator('.result-window');
  await result.getByText('Feira de Santana').waitFor({ timeout: 15000 });
  const shown = JSON.parse(await editorText(page, '.result-window'));
  // 2910800: UF code 29 = BA, Northeast; priority region both by region and by Semiárido (art. 6º).
  expect(shown).toEqual({ data: { municipality: { name: 'Feira de Santana', state: 'BA', region: 'NORTHEAST', semiarid: true, priorityRegion: true } } });
  await page.screenshot({ path: SCREENSHOT });
  // The schema, refused at load without a token, loads once asked again with it (README: "Re-fetch").
  await page.locator('button[aria-label="Re-fetch GraphQL schema"]').click();
  await page.locator('button[aria-label="Show Documentation Explorer"]').click();
  await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor({ timeout: 15000 });
  await page.close();
  expect(offMachine).toEqual([]);
  expect(besidesUnauthorized()).toEqual([]);
});

test('without a token the result says UNAUTHENTICATED', async () => {
  const page = await open('/graphql');
  await setEditor(page, '.graphiql-query-editor', 'query NoToken { municipality(ibgeCode: "2611606") { name } }');
  await run(page, 'NoToken');
  await page.locator('.result-window').getByText('UNAUTHENTICATED').waitFor({ timeout: 15000 });
  const shown = JSON.parse(await editorText(page, '.result-window'));
  expect(shown.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  expect(shown.data).toBeUndefined();
  await page.close();
  expect(besidesUnauthorized()).toEqual([]);
});

test('a token in the URL fragment fills the header editor, leaves the address bar, and the schema docs load', async () => {
  const token = await api.token({ role: 'AUDITOR' });
  const page = await open(`/graphql#token=${encodeURIComponent(token)}`);
  expect(page.url()).not.toContain(token);
  expect(JSON.parse(await editorText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)'))).toEqual({ Authorization: `Bearer ${token}` });
  await page.locator('button[aria-label="Show Documentation Explorer"]').click();
  const docs = page.locator('.graphiql-doc-explorer');
  await docs.getByText('Query', { exact: true }).first().waitFor({ timeout: 15000 });
  await docs.getByText('Query', { exact: true }).first().click();
  await docs.getByText('municipality', { exact: true }).first().waitFor({ timeout: 15000 });
  expect(await docs.textContent()).toContain('A municipality by its 7-digit IBGE code.');
  await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-docs.png') });
  await page.close();
  expect(offMachine).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('the token of the URL fragment is in every tab, stays after reloads (at once, and once the tabs are stored), and a later token replaces it in every tab', async () => {
  const headerText = () => editorText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)');
  const tab = (i: number) => page.locator('.graphiql-tab .graphiql-tab-button').nth(i);
  const tokenOf = async () => JSON.parse(await headerText()).Authorization;
  const first = await api.token({ role: 'AUDITOR', sub: 'analyst-first-visit' });
  const page = await open(`/graphql#token=${encodeURIComponent(first)}`);
  // Tabs clicked, then a reload before GraphiQL has stored its tabs (it does so 500 ms after the
  // last change).
  await page.waitForTimeout(1500);
  for (const i of [0, 1, 0]) {
    await (await page.$$('.graphiql-tab'))[i].click();
    await page.waitForTimeout(300);
  }
  await page.reload();
  await page.waitForSelector('.graphiql-container', { timeout: 30000 });
  await page.waitForTimeout(1000);
  expect(await tokenOf()).toBe(`Bearer ${first}`);
  // GraphiQL keeps headers per tab: clicking a tab, the active one included, shows that tab's own.
  for (let i = EXAMPLE_OPERATIONS.length - 1; i >= 0; i--) {
    await tab(i).click();
    expect(await tokenOf()).toBe(`Bearer ${first}`);
  }
  // A query run from another tab than the first is sent with the token.
  await tab(1).click();
  await setEditor(page, '.graphiql-query-editor', 'query InSecondTab { municipality(ibgeCode: "2611606") { name state } }');
  await run(page, 'InSecondTab');
  await page.locator('.result-window').getByText('Recife').waitFor({ timeout: 15000 });
  // 2611606: UF code 26 = PE.
  expect(JSON.parse(await editorText(page, '.result-window'))).toEqual({ data: { municipality: { name: 'Recife', state: 'PE' } } });
  // Kept in local storage: a reload without the fragment still has it, in every tab.
  await page.waitForTimeout(700); // GraphiQL stores its tabs 500 ms after a change
  await page.goto(api.url);
  await page.waitForSelector('.graphiql-container', { timeout: 30000 });
  const tabsBefore = await page.locator('.graphiql-tab .graphiql-tab-button').count();
  for (let i = 0; i < EXAMPLE_OPERATIONS.length; i++) {
    await tab(i).click();
    expect(await tokenOf()).toBe(`Bearer ${first}`);
  }
  // A new token in a later link replaces the stored one in every tab kept from before.
  const second = await api.token({ role: 'AUDITOR', sub: 'analyst-later-visit' });
  expect(second).not.toBe(first);
  // Once the person confirms (tested below: without, nothing is replaced).
  page.once('dialog', (dialog) => { void dialog.accept(); });
  await page.goto(`${api.url}#token=${encodeURIComponent(second)}`);
  await page.waitForSelector('.graphiql-container', { timeout: 30000 });
  const count = await page.locator('.graphiql-tab .graphiql-tab-button').count();
  expect(count).toBeGreaterThanOrEqual(tabsBefore);
  for (let i = 0; i < count; i++) {
    await tab(i).click();
    expect(await tokenOf()).toBe(`Bearer ${second}`);
  }
  await page.close();
  expect(offMachine).toEqual([]);
  expect(besidesUnauthorized()).toEqual([]);
});

test('a link with another token than the one kept asks before replacing it; declined, every tab keeps its token; the same token asks nothing', async () => {
  const headerText = () => editorText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)');
  const tab = (i: number) => page.locator('.graphiql-tab .graphiql-tab-button').nth(i);
  const mine = await api.token({ role: 'AUDITOR', sub: 'analyst-own-token' });
  const page = await open(`/graphql#token=${encodeURIComponent(mine)}`);
  const asked: string[] = [];
  page.on('dialog', (dialog) => { asked.push(`${dialog.type()}: ${dialog.message()}`); void dialog.dismiss(); });
  await page.waitForTimeout(1200); // GraphiQL stores its tabs 500 ms after a change
  // The same token again: nothing to ask.
  await page.goto(`${api.url}#token=${encodeURIComponent(mine)}`);
  await page.waitForSelector('.graphiql-container', { timeout: 30000 });
  expect(asked).toEqual([]);
  // A crafted link, opened over the page (the fragment alone changes) and afresh: asked each time, declined, nothing replaced.
  const crafted = await api.token({ role: 'ADMIN', sub: 'someone-else' });
  for (const go of [() => page.evaluate(`window.location.hash = 'token=${encodeURIComponent(crafted)}'`), () => page.goto(`${api.url}#token=${encodeURIComponent(crafted)}`)]) {
    await go();
    await page.waitForSelector('.graphiql-container', { timeout: 30000 });
    await page.waitForTimeout(1000);
    expect(page.url()).not.toContain(crafted);
    for (let i = EXAMPLE_OPERATIONS.length - 1; i >= 0; i--) {
      await tab(i).click();
      expect(JSON.parse(await headerText()).Authorization).toBe(`Bearer ${mine}`);
    }
  }
  expect(asked).toHaveLength(2);
  expect(asked[0]).toMatch(/^confirm: This link carries another token than the one this browser keeps/);
  const storedTokens = await page.evaluate<string>(`[localStorage.getItem('selo:tokenHeaders'), localStorage.getItem('graphiql:tabState')].join(' ')`);
  expect(storedTokens).toContain(mine);
  expect(storedTokens).not.toContain(crafted);
  await page.close();
  expect(offMachine).toEqual([]);
  expect(besidesUnauthorized()).toEqual([]);
});

test('reloads add no tab: the saved examples stay as they are, the active one with its variables', async () => {
  const token = await api.token({ role: 'AUDITOR' });
  const page = await open(`/graphql#token=${encodeURIComponent(token)}`);
  const names = async () => (await page.locator('.graphiql-tab .graphiql-tab-button').allTextContents()).map((t) => t.trim());
  const variablesOfActive = async () => {
    await page.getByText('Variables', { exact: true }).click();
    return editorText(page, '.graphiql-editor-tool .graphiql-editor:not(.hidden)');
  };
  await page.waitForTimeout(1500); // GraphiQL stores its tabs 500 ms after a change
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await page.waitForSelector('.graphiql-container', { timeout: 30000 });
    await page.waitForTimeout(1200);
  }
  expect(await names()).toEqual(EXAMPLE_OPERATIONS.map((op) => op.name));
  expect(await page.locator('.graphiql-tab-active').textContent()).toContain('ProducerMonth');
  expect(JSON.parse(await variablesOfActive())).toEqual(EXAMPLE_OPERATIONS[0].variables);
  // Another tab chosen, then reloads: it stays the active one, still no copy.
  await page.locator('.graphiql-tab .graphiql-tab-button').nth(2).click();
  await page.waitForTimeout(1200);
  for (let i = 0; i < 2; i++) {
    await page.reload();
    await page.waitForSelector('.graphiql-container', { timeout: 30000 });
    await page.waitForTimeout(1200);
  }
  expect(await names()).toEqual(EXAMPLE_OPERATIONS.map((op) => op.name));
  expect(await page.locator('.graphiql-tab-active').textContent()).toContain(EXAMPLE_OPERATIONS[2].name);
  expect(JSON.parse(await variablesOfActive())).toEqual(EXAMPLE_OPERATIONS[2].variables);
  await page.close();
  expect(besidesUnauthorized()).toEqual([]);
});

test('at 1440 px the editors take most of the width, the answer the rest', async () => {
  const page = await open('/graphql');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(300);
  const width = (selector: string) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().width);
  const editors = await width('.graphiql-editors');
  const response = await width('.graphiql-response');
  expect(editors).toBeGreaterThan(800);
  expect(editors).toBeGreaterThan(response * 1.5);
  await page.close();
});
