// The alarm sound switch (local key 'alarmSound', spec §3, §9; on unless turned off) and a short two-tone
// beep made with Web Audio, so no sound file has to be shipped.
import { useSyncExternalStore } from 'react';

const KEY = 'alarmSound';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'false';
  } catch {
    return true;
  }
}

let enabled = read();

export const alarmSoundStore = {
  get: (): boolean => enabled,
  set(on: boolean): void {
    enabled = on;
    try {
      localStorage.setItem(KEY, String(on));
    } catch {
      // kept for this page only
    }
    for (const l of listeners) l();
  },
  subscribe(fn: () => void): () => void {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

export function useAlarmSound(): boolean {
  return useSyncExternalStore(alarmSoundStore.subscribe, alarmSoundStore.get);
}

let audio: AudioContext | null = null;

/** Plays the alarm beep when sound is on; browsers may refuse until the user has interacted with the page. */
export function playAlarmSound(): void {
  if (!enabled || typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    const gain = ctx.createGain();
    gain.gain.value = 0.08;
    gain.connect(ctx.destination);
    [880, 660].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.frequency.value = freq;
      osc.connect(gain);
      osc.start(ctx.currentTime + i * 0.18);
      osc.stop(ctx.currentTime + i * 0.18 + 0.15);
    });
  } catch {
    // No audio device: the pop-up is enough.
  }
}
