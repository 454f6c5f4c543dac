export function bytes(n: string | number | undefined): string {
  const v = Number(n ?? 0);
  if (!Number.isFinite(v)) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let x = v;
  while (x >= 1024 && i < units.length - 1) {
    x /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${x.toFixed(1)} ${units[i]}`;
}

export function shortDigest(d: string | undefined): string {
  return d ? d.replace(/^(sha\d+:)([0-9a-f]{12})[0-9a-f]*$/, '$1$2…') : '';
}

export function when(t: string | undefined): string {
  return t ? t.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '';
}
