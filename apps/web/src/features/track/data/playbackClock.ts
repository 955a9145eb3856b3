// The playback clock: a cursor (fractional fix index) advanced by requestAnimationFrame while playing.
// Subscribers are called every frame; the map's moving car and the chart cursor read it directly.
import { advance, type PlaybackSpeed } from './playback.ts';

export interface PlaybackSnapshot {
  cursor: number;
  playing: boolean;
  speed: PlaybackSpeed;
  length: number;
}

export class PlaybackClock {
  private snapshot: PlaybackSnapshot = { cursor: 0, playing: false, speed: 1, length: 0 };
  private readonly listeners = new Set<() => void>();
  private frame = 0;
  private last = 0;

  get = (): PlaybackSnapshot => this.snapshot;

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  private set(next: Partial<PlaybackSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    for (const l of this.listeners) l();
  }

  /** A new track to play: back to the start, paused. */
  load(length: number): void {
    this.pause();
    this.set({ cursor: 0, length });
  }

  play(): void {
    if (this.snapshot.playing || this.snapshot.length < 2) return;
    if (this.snapshot.cursor >= this.snapshot.length - 1) this.set({ cursor: 0 });
    this.set({ playing: true });
    this.last = performance.now();
    const tick = (now: number) => {
      const { cursor, length, speed, playing } = this.snapshot;
      if (!playing) return;
      const next = advance(cursor, now - this.last, length, speed);
      this.last = now;
      this.set({ cursor: next, playing: next < length - 1 });
      if (next < length - 1) this.frame = requestAnimationFrame(tick);
    };
    this.frame = requestAnimationFrame(tick);
  }

  pause(): void {
    cancelAnimationFrame(this.frame);
    if (this.snapshot.playing) this.set({ playing: false });
  }

  seek(cursor: number): void {
    this.set({ cursor: Math.max(0, Math.min(Math.max(0, this.snapshot.length - 1), cursor)) });
  }

  setSpeed(speed: PlaybackSpeed): void {
    this.set({ speed });
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.listeners.clear();
  }
}
