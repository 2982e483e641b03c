import type { PublicationSchedule } from './sources/source-adapter.js';

const DAY_MS = 86_400_000;

/** The wall-clock date and time in `timeZone` at `instant`, as UTC fields (minutes precision). */
function localFields(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
  }).formatToParts(instant);
  const field = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  return Date.UTC(field('year'), field('month') - 1, field('day'), field('hour'), field('minute'));
}

/**
 * The instant at which the wall clock of `timeZone` shows `localMs` (a local date and time given
 * as UTC fields). Two passes settle the offset across a DST change; a local time skipped by one
 * comes out an hour later, which is fine for a run after publication.
 */
function instantOfLocal(localMs: number, timeZone: string): number {
  let guess = localMs;
  for (let i = 0; i < 2; i++) guess = localMs - (localFields(guess, timeZone) - guess);
  return guess;
}

/**
 * The next run after `now` of a source's daily ingestion: `delayMinutes` after its publication
 * time, on one of its publication weekdays, in its own time zone (DST followed). `day` is the
 * publication's local date, YYYY-MM-DD, which names the run's claim slot.
 */
export function nextPublicationRun(now: number, schedule: PublicationSchedule, delayMinutes: number): { at: number; day: string } {
  const [hours, minutes] = schedule.localTime.split(':').map(Number);
  const today = Math.floor(localFields(now, schedule.timeZone) / DAY_MS) * DAY_MS;
  for (let offset = 0; offset <= 8; offset++) {
    const localDay = today + offset * DAY_MS;
    const isoWeekday = ((new Date(localDay).getUTCDay() + 6) % 7) + 1;
    if (!schedule.weekdays.includes(isoWeekday)) continue;
    const at = instantOfLocal(localDay + (hours! * 60 + minutes! + delayMinutes) * 60_000, schedule.timeZone);
    if (at > now) return { at, day: new Date(localDay).toISOString().slice(0, 10) };
  }
  throw new Error(`no publication weekday in ${JSON.stringify(schedule.weekdays)}`);
}
