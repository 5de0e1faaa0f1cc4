// Keys and values that a record's JSON text must escape or cannot take as UTF-8 (quotes, backslashes, control
// characters, U+2028, non-ASCII, bytes that are not UTF-8), for the property specs of the record JSON writers.
export const AWKWARD_TEXT_BYTES: readonly Buffer[] = [
  Buffer.alloc(0),
  Buffer.from('x'.repeat(600)),
  Buffer.from('"quoted"\\n'),
  Buffer.from([0xff, 0xfe, 0x22, 0x5c]),
  Buffer.from('tab\there, bell\u0007, del\u007f, line sep \u2028'),
  Buffer.from('plain ascii | and é, 漢字, 🙂'),
  Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]), // an encoded lone surrogate: not valid UTF-8
  Buffer.from([0x61, 0xc3]), // a cut multi-byte character
];
