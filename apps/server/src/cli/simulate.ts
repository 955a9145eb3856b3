// `carhere simulate` — drives simulated GT06 / JT/T 808 trackers over TCP (apps/simulator).
import { runSimulator } from '@carhere/simulator';

export async function runSimulateCli(args: string[]): Promise<number> {
  return runSimulator(args);
}
