import { describe, expect, it } from 'vitest';
import { formatCell, formatTable } from './table.js';

describe('formatTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      formatTable(
        ['GROUP', 'TOPIC', 'LAG'],
        [
          ['g', 'test', 0],
          ['another-group', 't', 12345],
        ],
      ),
    ).toBe('GROUP          TOPIC  LAG\ng              test   0\nanother-group  t      12345\n');
  });

  it('prints the header alone when there are no rows', () => {
    expect(formatTable(['TOPIC', 'PARTITIONS'], [])).toBe('TOPIC  PARTITIONS\n');
  });

  it('shows missing values as - and keeps a row on one line', () => {
    expect(formatCell(null)).toBe('-');
    expect(formatCell(undefined)).toBe('-');
    expect(formatCell('a\tb\nc\r')).toBe('a\\tb\\nc\\r');
    expect(formatTable(['A', 'B'], [['x\ny', null]])).toBe('A     B\nx\\ny  -\n');
  });

  it('refuses a row with the wrong number of cells', () => {
    expect(() => formatTable(['A', 'B'], [['only one']])).toThrow(/1 cells, expected 2/);
  });
});
