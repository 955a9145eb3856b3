// A streamed .xlsx sheet that waits for the file to take its rows (countExport, issue 13: memory flat for
// 100,000 rows). exceljs's streaming writer commits each row as XML text into the sheet's stream, but that
// stream (exceljs StreamBuf) hands its 64 KB buffers to the zip writer without looking at write()'s answer, so
// when rows come faster than deflate and the disk take them, the zip entry's input buffers them all: about
// 0.45 KB per row, 45 MB for 100,000 rows. Here every ROWS_PER_CHECK rows the writer looks at what that input
// holds and, over HIGH_MARK, waits for its 'drain'.
//
// The input is found through exceljs 4.4.0 internals (WorksheetWriter.stream → StreamBuf.pipes, Node streams
// with _writableState); the version is pinned and xlsx-rows.test.ts fails if they move.
import { once } from 'node:events';
import { neutraliseRow } from '@carhere/domain';
import ExcelJS from 'exceljs';

/** Rows written between two looks at the buffered bytes. */
const ROWS_PER_CHECK = 200;
/** The writer waits when the zip entry's input holds more than this (bytes). */
const HIGH_MARK = 1024 * 1024;

interface PipeLike {
  _writableState?: { length: number; needDrain: boolean };
  _readableState?: { length: number };
  once(event: 'drain', listener: () => void): unknown;
}

interface SheetInternals {
  stream: { pipes?: PipeLike[]; buffers?: { length: number }[] };
}

export class XlsxRowWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private sinceCheck = 0;

  constructor(file: string, sheetName: string) {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: file,
      useStyles: false,
      useSharedStrings: false,
    });
    this.sheet = this.workbook.addWorksheet(sheetName);
  }

  private pipes(): PipeLike[] {
    return (this.sheet as unknown as SheetInternals).stream.pipes ?? [];
  }

  /**
   * Bytes of committed rows not yet taken by the zip writer: those the sheet's stream holds before the zip
   * entry is attached, and those the entry's input buffers.
   */
  pendingBytes(): number {
    let bytes = 0;
    for (const p of this.pipes()) bytes += (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0);
    const own = (this.sheet as unknown as SheetInternals).stream.buffers ?? [];
    for (const b of own) bytes += b.length;
    return bytes;
  }

  /** Adds one row; every ROWS_PER_CHECK rows waits until the zip writer has taken what is buffered. */
  async add(cells: readonly (string | number | null)[]): Promise<void> {
    // The callers neutralise already (safeCell); the writer does it too, so no caller can forget (idempotent).
    this.sheet.addRow(neutraliseRow([...cells])).commit();
    if (++this.sinceCheck < ROWS_PER_CHECK) return;
    this.sinceCheck = 0;
    await this.drained();
  }

  private async drained(): Promise<void> {
    // Before the zip writer reaches the sheet's entry there is no input to wait on: let it get there.
    for (let tries = 0; this.pipes().length === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const p of this.pipes()) {
      const state = p._writableState;
      if (state?.needDrain && state.length > HIGH_MARK) await once(p as never, 'drain');
    }
  }

  /** Ends the sheet and the file. */
  async finish(): Promise<void> {
    await (this.sheet as unknown as { commit(): Promise<void> | void }).commit();
    await this.workbook.commit();
  }
}
