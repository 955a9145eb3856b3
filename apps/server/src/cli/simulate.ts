// `carhere simulate` — the device simulator lives in apps/simulator (gateway issue).
export async function runSimulateCli(_args: string[]): Promise<number> {
  console.error('simulate: the device simulator is not available in this build yet');
  return 2;
}
