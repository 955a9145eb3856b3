// Whether the user lands on the dashboard after signing in instead of the monitor (the spec's home),
// chosen on the dashboard itself and kept in this browser's local storage.
const KEY = 'carhere.landing';

export function landingIsDashboard(): boolean {
  try {
    return localStorage.getItem(KEY) === 'dashboard';
  } catch {
    return false;
  }
}

export function setLandingDashboard(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, 'dashboard');
    else localStorage.removeItem(KEY);
  } catch {
    // private mode: the choice lasts for this page
  }
}
