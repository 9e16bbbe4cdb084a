// The text encodings an imported file may be in (pure; main and renderer alike): what the
// detector may answer and what the user may name (`--encoding`, the import wizard's choice).
// Names are the WHATWG/IANA ones, lower case, each one iconv-lite decodes.
export const TEXT_ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
  'windows-1250',
  'windows-1251',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-5',
  'iso-8859-7',
  'iso-8859-9',
  'iso-8859-15',
  'koi8-r',
  'shift_jis',
  'euc-jp',
  'iso-2022-jp',
  'gb18030',
  'big5',
  'euc-kr',
] as const;

export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

export const isTextEncoding = (name: string): name is TextEncoding =>
  (TEXT_ENCODINGS as readonly string[]).includes(name);
