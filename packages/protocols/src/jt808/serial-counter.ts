/**
 * Platform message serial numbers for one connection (0..65535, wrapping). Every message the platform
 * sends takes the next value, so a device's general response (0x0001), which quotes the serial it
 * answers, can be matched to the command that was sent.
 */
export class Jt808SerialCounter {
  private value: number;

  constructor(start = 0) {
    this.value = start & 0xffff;
  }

  /** Returns the serial for the next message and advances. */
  next(): number {
    const current = this.value;
    this.value = (this.value + 1) & 0xffff;
    return current;
  }

  /** The serial the next message will get. */
  peek(): number {
    return this.value;
  }
}
