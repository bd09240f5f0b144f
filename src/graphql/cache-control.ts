import type { PerRequest, RequestHooks } from './request-hooks';

/**
 * Request hooks: every answer Apollo gives has passed the token check (an answer without a valid
 * token is refused before any hook runs), so it is one caller's view of tax records: no shared
 * cache may keep it, nor the browser store it, whether it came by POST or by GET (which caches would
 * otherwise key by URL). The exports say the same (`no-store`).
 */
const privateAnswer: RequestHooks = {
  willSendResponse({ response }) {
    response.http.headers.set('cache-control', 'private, no-store');
  },
};
export const privateAnswers: PerRequest = () => privateAnswer;
