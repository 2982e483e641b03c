const DAY_MS = 86_400_000;

/** The next moment after `now` at `minuteOfDay` minutes past midnight UTC. */
export function nextRunAt(now: number, minuteOfDay: number): number {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  const today = midnight + minuteOfDay * 60_000;
  return today > now ? today : today + DAY_MS;
}

/** Runs `job` every day at the given UTC minute until the returned function is called. */
export function scheduleDaily(minuteOfDay: number, job: () => Promise<void>, now: () => number = Date.now): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const arm = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void job().finally(arm);
    }, nextRunAt(now(), minuteOfDay) - now());
    timer.unref();
  };
  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
