const mods = process.argv.slice(2);
globalThis.gc(); const base = process.memoryUsage();
for (const m of mods) await import(m);
globalThis.gc(); globalThis.gc(); const after = process.memoryUsage();
console.log(mods.join(' ').padEnd(50), 'heap +', ((after.heapUsed-base.heapUsed)/1048576).toFixed(1), 'MB  rss +', ((after.rss-base.rss)/1048576).toFixed(1));
