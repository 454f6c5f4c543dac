// One named section of an ELF file held in memory, from its section header
// table (ELF-32 and ELF-64, either byte order; System V gABI, "Sections").
// Written by hand: reading a section by name is a few offsets, and every
// offset is checked against the buffer, so a hostile header reads nothing.

export const ELF_MAGIC = Buffer.from([0x7f, 0x45, 0x4c, 0x46]);

export function isElf(head: Buffer): boolean {
  return head.length >= 4 && head.subarray(0, 4).equals(ELF_MAGIC);
}

/** The section's bytes; undefined when there is no such section; a string when the file is malformed. */
export function elfSection(buf: Buffer, wanted: string): Buffer | undefined | string {
  if (buf.length < 52 || !isElf(buf)) return 'not an ELF file';
  const is64 = buf[4] === 2;
  const le = buf[5] === 1;
  if ((buf[4] !== 1 && buf[4] !== 2) || (buf[5] !== 1 && buf[5] !== 2)) return 'ELF header with an unknown class or byte order';
  if (is64 && buf.length < 64) return 'ELF header cut short';
  const u16 = (o: number) => (le ? buf.readUInt16LE(o) : buf.readUInt16BE(o));
  const u32 = (o: number) => (le ? buf.readUInt32LE(o) : buf.readUInt32BE(o));
  const word = (o: number) => (is64 ? Number(le ? buf.readBigUInt64LE(o) : buf.readBigUInt64BE(o)) : u32(o));
  const shoff = word(is64 ? 0x28 : 0x20);
  const entsize = u16(is64 ? 0x3a : 0x2e);
  let shnum = u16(is64 ? 0x3c : 0x30);
  let shstrndx = u16(is64 ? 0x3e : 0x32);
  if (shoff === 0) return undefined;
  const minEnt = is64 ? 64 : 40;
  if (entsize < minEnt || shoff + entsize > buf.length) return 'ELF section header table outside the file';
  const header = (i: number) => {
    const o = shoff + i * entsize;
    return {
      name: u32(o),
      type: u32(o + 4),
      offset: word(is64 ? o + 24 : o + 16),
      size: word(is64 ? o + 32 : o + 20),
      link: u32(is64 ? o + 40 : o + 24),
    };
  };
  // Past 0xff00 sections the count and string-table index live in section 0.
  if (shnum === 0) shnum = header(0).size;
  if (shstrndx === 0xffff) shstrndx = header(0).link;
  if (shoff + shnum * entsize > buf.length) return 'ELF section header table outside the file';
  if (shstrndx >= shnum) return 'ELF section name table index out of range';
  const strtab = header(shstrndx);
  if (strtab.offset + strtab.size > buf.length) return 'ELF section name table outside the file';
  const want = Buffer.from(wanted, 'latin1');
  for (let i = 1; i < shnum; i++) {
    const h = header(i);
    const nameAt = strtab.offset + h.name;
    if (h.name >= strtab.size || nameAt + want.length + 1 > buf.length) continue;
    if (!buf.subarray(nameAt, nameAt + want.length).equals(want) || buf[nameAt + want.length] !== 0) continue;
    if (h.type === 8) return undefined; // SHT_NOBITS: no bytes in the file
    if (h.offset + h.size > buf.length) return `ELF section ${wanted} outside the file`;
    return buf.subarray(h.offset, h.offset + h.size);
  }
  return undefined;
}
