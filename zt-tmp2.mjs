import { chromium } from 'playwright-core';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, extname } from 'node:path';
const root = process.argv[2] ?? 'dist/web';
const srv = createServer(async (req, res) => {
  const p = req.url === '/' ? '/blank.html' : req.url.split('?')[0];
  if (p === '/blank.html') { res.writeHead(200, {'content-type':'text/html'}); return res.end('<!doctype html><title>t</title>'); }
  try { const b = await readFile(join(root, p)); res.writeHead(200, {'content-type': extname(p) === '.js' ? 'text/javascript' : 'application/octet-stream'}); res.end(b); } catch { res.writeHead(404); res.end(); }
}).listen(0);
const port = srv.address().port;
const mods = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const rows = [];
for (let round = 0; round < 6; round++) {
  const ctx = await browser.newContext(); const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await page.goto(`http://127.0.0.1:${port}/`);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const r = await page.evaluate(async (mods) => {
    const out = [];
    for (const m of mods) { await new Promise(r => setTimeout(r, 50)); const t = performance.now(); await import(m); out.push(Math.round(performance.now() - t)); }
    return out;
  }, mods);
  rows.push(r); console.log(mods.map((m, i) => `${m.split('/').pop()} ${r[i]}`).join('  '));
  await ctx.close();
}
await browser.close(); srv.close();
