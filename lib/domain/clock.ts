// Time as a port: the domain asks a Clock; adapters give the system's or a fixed one (tests).
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  /** Waits `ms` (a retry's backoff); a fixed clock moves on by `ms` at once instead. */
  sleep?(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** A clock that stands still until moved. */
export class FixedClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
  async sleep(ms: number): Promise<void> {
    this.ms += ms;
  }
}

export const seconds = (clock: Clock): number => Math.floor(clock.now() / 1000);
