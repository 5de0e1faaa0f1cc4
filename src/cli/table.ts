// Plain-text tables for list and describe output: a header row and left-aligned columns separated by two
// spaces, like `kafka-consumer-groups --describe`. Cells are single-line strings (newlines and tabs are shown
// escaped so a value can never break the layout).

export type Cell = string | number | boolean | null | undefined;

export function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return '-';
  return String(cell).replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

export function formatTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cells = rows.map((row) => {
    if (row.length !== headers.length) {
      throw new Error(`table row has ${row.length} cells, expected ${headers.length}`);
    }
    return row.map(formatCell);
  });
  const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column].length)));
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}
