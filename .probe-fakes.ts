import fs from 'node:fs';
import { startFakeServer } from './test/fake-upstreams/fake-server.ts';
import { hackerNewsStory } from './test/fake-upstreams/hackernews.ts';
import { startFakeSmtp } from './test/fake-upstreams/smtp.ts';

const log = (line: unknown) => fs.appendFileSync('/tmp/contract-probe/requests.log', JSON.stringify(line) + '\n');
const now = Date.now();
const hn = await startFakeServer((request) => {
  log({ fake: 'hn', method: request.method, path: request.path, query: Object.fromEntries(request.query) });
  if (!request.path.endsWith('/api/v1/search_by_date')) return null;
  const hits = [hackerNewsStory({ id: 4242, title: 'Zorblax is a great tool for monitoring', createdAt: new Date(now - 3_600_000) })];
  return { body: { hits, nbHits: hits.length, page: 0, nbPages: 1, hitsPerPage: 100 } };
});
let mode = 'ok';
const llm = await startFakeServer(async (request) => {
  log({ fake: 'llm', method: request.method, path: request.path, headers: { authorization: request.headers.authorization }, body: request.body.slice(0, 3000) });
  if (request.path === '/mode') { mode = request.query.get('m') ?? 'ok'; return { body: { mode } }; }
  if (mode === 'fail') return { status: 500, body: { error: { message: 'boom' } } };
  if (mode === 'slow') await new Promise((r) => setTimeout(r, 120_000));
  const body = JSON.parse(request.body);
  const ids = [...body.messages.map((m: { content: string }) => m.content).join('\n').matchAll(/"id":\s*"([^"]+)"/g)].map((m) => m[1]);
  const content = JSON.stringify({ classifications: ids.map((id) => ({ id, relevance: 88, sentiment: 'positive', intents: ['praise'], automated: false, language: 'en', note: 'from the fake' })) });
  return { body: { id: 'x', object: 'chat.completion', created: 1, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }] } };
});
const smtp = await startFakeSmtp();
setInterval(() => {
  fs.writeFileSync('/tmp/contract-probe/mail.json', JSON.stringify(smtp.messages, null, 1));
}, 1000);
fs.writeFileSync('/tmp/contract-probe/urls.json', JSON.stringify({ hn: hn.url, llm: llm.url, smtp: smtp.url }));
console.log('fakes up', hn.url, llm.url, smtp.url);
