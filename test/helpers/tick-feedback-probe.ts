/**
 * Preloaded into a server under test (`NODE_OPTIONS=--import <this>`): on SIGUSR2, full garbage
 * collections with no tick object alive, then V8's view of `process.nextTick` on stdout
 * (printTickFeedbackAfterFullCollections).
 */
import { printTickFeedbackAfterFullCollections } from './tick-feedback.js';

process.on('SIGUSR2', () => void printTickFeedbackAfterFullCollections());
