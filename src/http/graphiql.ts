import path from 'node:path';
import express from 'express';
import { EXAMPLE_OPERATIONS } from './graphiql-examples';

// Served from our own dependencies: ministry networks are often closed to CDNs.

const ASSET_PREFIX = '/graphiql-assets';

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** A fixed list: nothing else is served. */
const ASSETS: Record<string, { file: string; type: string }> = {
  'react.production.min.js': { file: path.join(packageDir('react'), 'umd/react.production.min.js'), type: 'text/javascript' },
  'react-dom.production.min.js': { file: path.join(packageDir('react-dom'), 'umd/react-dom.production.min.js'), type: 'text/javascript' },
  'graphiql.min.js': { file: path.join(packageDir('graphiql'), 'graphiql.min.js'), type: 'text/javascript' },
  'graphiql.min.css': { file: path.join(packageDir('graphiql'), 'graphiql.min.css'), type: 'text/css' },
};

/** Not executed, so the CSP allows no inline script. */
interface PageConfig {
  endpoint: string;
  defaultHeaders: string;
  tabs: Array<{ query: string; variables: string; headers?: string }>;
}

/** ASCII only: a browser refuses to send a header value outside ISO-8859-1 (such as "…"). */
export const DEFAULT_HEADERS_HINT = '{\n  "Authorization": "Bearer <token>"\n}';

function pageConfig(): PageConfig {
  return {
    endpoint: '/graphql',
    defaultHeaders: DEFAULT_HEADERS_HINT,
    tabs: EXAMPLE_OPERATIONS.map((op) => ({ query: op.query, variables: JSON.stringify(op.variables, null, 2) })),
  };
}

function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function page(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Selo API — GraphiQL</title>
<link rel="stylesheet" href="${ASSET_PREFIX}/graphiql.min.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script id="selo-graphiql-config" type="application/json">${scriptJson(pageConfig())}</script>
<script src="${ASSET_PREFIX}/react.production.min.js"></script>
<script src="${ASSET_PREFIX}/react-dom.production.min.js"></script>
<script src="${ASSET_PREFIX}/graphiql.min.js"></script>
<script src="${ASSET_PREFIX}/selo-graphiql.js"></script>
</body>
</html>
`;
}

/**
 * A token in the URL fragment (never sent or logged) fills every tab's headers (GraphiQL 3 keeps
 * headers per tab) and is kept in localStorage; a different one replaces it only once confirmed.
 */
const PAGE_SCRIPT = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('selo-graphiql-config').textContent);
  var headers;
  var tabs = config.tabs;
  var defaultHeaders = config.defaultHeaders;
  // The headers of the last #token= link, for a reload before GraphiQL has stored its tabs.
  var REMEMBERED = 'selo:tokenHeaders';
  var REPLACE_QUESTION = 'This link carries another token than the one this browser keeps for GraphiQL.\\n\\n' +
    'Replace the kept token, in every tab, with the one of the link? Cancel keeps yours. Accept only a link you asked for.';
  function authorizationOf(text) {
    try { var value = JSON.parse(text); return value && typeof value.Authorization === 'string' ? value.Authorization : null; } catch (e) { return null; }
  }
  // The headers holding a token this browser keeps: the last link's, else those of a stored tab.
  function storedHeaders() {
    try {
      var remembered = window.localStorage.getItem(REMEMBERED);
      if (remembered && authorizationOf(remembered)) return remembered;
      var state = JSON.parse(window.localStorage.getItem('graphiql:tabState') || 'null');
      var tabsKept = state && Array.isArray(state.tabs) ? state.tabs : [];
      for (var i = 0; i < tabsKept.length; i++) {
        var auth = tabsKept[i].headers ? authorizationOf(tabsKept[i].headers) : null;
        if (auth && auth !== 'Bearer <token>') return tabsKept[i].headers;
      }
    } catch (e) { /* no local storage: nothing is kept */ }
    return null;
  }
  var match = /(?:^#|&)token=([^&]+)/.exec(window.location.hash);
  // Anyone can make such a link: a different token kept here is replaced only when the person agrees.
  var keptHeaders = match ? storedHeaders() : null;
  var given = match ? JSON.stringify({ Authorization: 'Bearer ' + decodeURIComponent(match[1]) }, null, 2) : null;
  if (keptHeaders && authorizationOf(keptHeaders) !== authorizationOf(given) && !window.confirm(REPLACE_QUESTION)) {
    headers = keptHeaders;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  } else if (match) {
    headers = given;
    try {
      window.localStorage.setItem(REMEMBERED, headers);
      var stored = JSON.parse(window.localStorage.getItem('graphiql:tabState') || 'null');
      if (stored && Array.isArray(stored.tabs)) {
        stored.tabs.forEach(function (tab) { tab.headers = headers; });
        window.localStorage.setItem('graphiql:tabState', JSON.stringify(stored));
      }
    } catch (e) { /* no local storage: the tabs below still carry the token */ }
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  } else {
    try { headers = window.localStorage.getItem(REMEMBERED) || undefined; } catch (e) { headers = undefined; }
  }
  // GraphiQL adds a tab at load unless one holds exactly the query, variables and headers it kept
  // from the editors ('graphiql:query' and the others): those lag behind the tabs (variables set by
  // a saved example are never written there), so every reload added a copy of the active tab
  // without its variables and opened it. They are set to the active tab's: a reload reopens it.
  try {
    var kept = JSON.parse(window.localStorage.getItem('graphiql:tabState') || 'null');
    var active = kept && Array.isArray(kept.tabs) ? kept.tabs[kept.activeTabIndex] || kept.tabs[0] : null;
    if (active) {
      ['query', 'variables', 'headers'].forEach(function (name) {
        if (active[name] == null) window.localStorage.removeItem('graphiql:' + name);
        else window.localStorage.setItem('graphiql:' + name, active[name]);
      });
    }
    // The editors take some five eighths of the width (GraphiQL splits it in half): the saved
    // examples' commented lines read whole at 1440 px. Dragging the bar keeps the reader's choice.
    if (!window.localStorage.getItem('graphiql:editorFlex')) window.localStorage.setItem('graphiql:editorFlex', '1.7');
  } catch (e) { /* no local storage: nothing was kept */ }
  if (headers) {
    defaultHeaders = headers;
    tabs = tabs.map(function (tab) { return Object.assign({}, tab, { headers: headers }); });
  }
  var props = {
    fetcher: GraphiQL.createFetcher({ url: config.endpoint }),
    defaultHeaders: defaultHeaders,
    defaultTabs: tabs,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: true,
    defaultEditorToolsVisibility: 'headers'
  };
  if (match) props.headers = headers;
  // A link with a new token opened over this page changes only the fragment: load it afresh.
  window.addEventListener('hashchange', function () {
    if (/(?:^#|&)token=/.test(window.location.hash)) window.location.reload();
  });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, props));
})();
`;

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // GraphiQL's editors set inline styles; its fonts and icons are data: URLs in its CSS.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

function wantsHtml(req: express.Request): boolean {
  return req.accepts(['application/graphql-response+json', 'application/json', 'text/html']) === 'text/html';
}

export function mountGraphiql(app: express.Express): void {
  const html = page();
  app.get('/graphql', (req, res, next) => {
    if (!wantsHtml(req)) return next();
    res.setHeader('content-security-policy', CSP);
    res.setHeader('x-content-type-options', 'nosniff');
    res.setHeader('cache-control', 'no-cache');
    res.type('html').send(html);
  });
  app.get(`${ASSET_PREFIX}/selo-graphiql.js`, (_req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
    res.type('text/javascript').send(PAGE_SCRIPT);
  });
  app.get(`${ASSET_PREFIX}/:name`, (req, res, next) => {
    const asset = Object.hasOwn(ASSETS, req.params.name) ? ASSETS[req.params.name] : undefined;
    if (!asset) return next();
    res.setHeader('x-content-type-options', 'nosniff');
    res.sendFile(asset.file, { headers: { 'content-type': asset.type }, maxAge: '1h' });
  });
}
