// The client state of spec §9 kept in sessionStorage so it survives a reload of the page (issue 21): the
// selected device ('selectedTid'), the selected account of the monitor's account picker ('selectAgentId') and
// the no-process set ('nis': IMEIs a special-brand agent keeps seeing although the rule of spec §6 would hide
// them, built from search). Logout clears them with the other session keys.
import { SESSION_KEYS } from '@carhere/domain';

type Key = (typeof SESSION_KEYS)[number];
const [, SELECTED_TID, SELECT_AGENT_ID, NIS] = SESSION_KEYS as readonly Key[];

function read(key: Key): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: Key, value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
}

export const clientState = {
  selectedTid: (): string | null => read(SELECTED_TID),
  setSelectedTid: (terminalID: string | null) => write(SELECTED_TID, terminalID),
  selectAgentId: (): string | null => read(SELECT_AGENT_ID),
  setSelectAgentId: (id: string | null) => write(SELECT_AGENT_ID, id),
  /** The no-process set, oldest first. */
  nis(): string[] {
    try {
      const parsed: unknown = JSON.parse(read(NIS) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
    } catch {
      return [];
    }
  },
  addNis(terminalID: string): void {
    const set = new Set(clientState.nis());
    set.add(terminalID);
    // Bounded like the server's list (10,000).
    write(NIS, JSON.stringify([...set].slice(-10_000)));
  },
};
