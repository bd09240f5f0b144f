import type { PerRequest, RequestHooks } from './request-hooks';

// Every answer is one authenticated caller's view of tax records: no shared cache or browser may
// keep it, by POST or GET (the exports say `no-store` too).
const privateAnswer: RequestHooks = {
  willSendResponse({ response }) {
    response.http.headers.set('cache-control', 'private, no-store');
  },
};
export const privateAnswers: PerRequest = () => privateAnswer;
