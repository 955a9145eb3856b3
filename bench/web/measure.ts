// In-page measurements (run through page.evaluate): per-keystroke filter time and frame rate.
import type { Page } from 'playwright-core';

/** Frames per second over `ms`, and the longest frame. */
export async function frameRate(page: Page, ms: number): Promise<{ fps: number; longestFrameMs: number }> {
  return page.evaluate(
    (duration) =>
      new Promise<{ fps: number; longestFrameMs: number }>((resolve) => {
        let frames = 0;
        let longest = 0;
        const start = performance.now();
        let last = start;
        const tick = (now: number) => {
          frames++;
          longest = Math.max(longest, now - last);
          last = now;
          if (now - start < duration) requestAnimationFrame(tick);
          else resolve({ fps: (frames * 1000) / (now - start), longestFrameMs: longest });
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

/**
 * Types `queries` into the device search one value at a time and returns, per value, the time from the input
 * event until a frame shows the filtered list (its scroll height says how many rows matched and the visible
 * rows all match).
 */
export async function filterTimes(
  page: Page,
  steps: { value: string; expected: number }[],
  rowHeight: number,
): Promise<number[]> {
  return page.evaluate(
    async ({ steps, rowHeight }) => {
      const input = document.querySelector<HTMLInputElement>('input[data-testid="device-search"]');
      if (!input) throw new Error('no search box');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set as (v: string) => void;
      const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
      const shows = (value: string, expected: number) => {
        const inner = document.querySelector<HTMLElement>('[data-testid="device-virtual-list"] > div');
        if (!inner || Number.parseFloat(inner.style.height) !== expected * rowHeight) return false;
        const q = value.trim().toLowerCase();
        return [...document.querySelectorAll('[data-testid="device-row"]')].every((row) =>
          (row.textContent ?? '').toLowerCase().includes(q),
        );
      };
      const times: number[] = [];
      for (const { value, expected } of steps) {
        await frame();
        const t0 = performance.now();
        setValue.call(input, value);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        for (let i = 0; i < 600 && !shows(value, expected); i++) await frame();
        if (!shows(value, expected)) throw new Error(`the list never showed ${expected} rows for "${value}"`);
        await frame(); // the frame with the new rows is painted
        times.push(performance.now() - t0);
      }
      return times;
    },
    { steps, rowHeight },
  );
}

/** The naive baseline: the same 10,000 rows filtered and every matching row rendered into the DOM. */
export async function naiveFilterTimes(page: Page, values: string[]): Promise<number[]> {
  return page.evaluate(async (values) => {
    const res = await fetch('/api/location/findV2', { method: 'POST', body: '{}' });
    const list = (await res.json()).data.list as {
      displayName: string;
      terminalID: string;
      carNumber: string;
      speed: number;
    }[];
    const box = document.createElement('div');
    box.style.cssText =
      'position:fixed;left:0;top:0;width:320px;height:700px;overflow:auto;background:#fff;z-index:99999';
    document.body.appendChild(box);
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const times: number[] = [];
    for (const value of values) {
      await frame();
      const t0 = performance.now();
      const q = value.trim().toLowerCase();
      const rows = document.createDocumentFragment();
      for (const d of list) {
        if (q && !`${d.displayName}\u0000${d.terminalID}\u0000${d.carNumber}`.toLowerCase().includes(q)) continue;
        const row = document.createElement('div');
        row.style.cssText = 'height:52px;padding:6px 12px;border-bottom:1px solid #f0f0f0;display:flex;gap:10px';
        const name = document.createElement('b');
        name.textContent = d.displayName;
        const imei = document.createElement('span');
        imei.textContent = d.terminalID;
        const speed = document.createElement('span');
        speed.textContent = `${d.speed} km/h`;
        row.append(name, imei, speed);
        rows.appendChild(row);
      }
      box.replaceChildren(rows);
      void box.offsetHeight; // layout
      await frame();
      await frame();
      times.push(performance.now() - t0);
    }
    box.remove();
    return times;
  }, values);
}
