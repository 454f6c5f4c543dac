// The names of the import formats, apart from their parsers: `berth advisories
// import --format` lists them in its help without loading a parser.
export const FORMAT_NAMES = ['yaml', 'osv', 'secdb', 'openvex'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];
