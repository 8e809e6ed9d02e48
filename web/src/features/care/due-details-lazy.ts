import { lazy } from 'react';

/**
 * What is due, opened (the horse's or the sale's details, with the care form), loaded when a
 * due line is opened: the bell is on every screen and the Due soon card on the Dashboard, the
 * first screen, and the details bring the forms, react-hook-form and zod (docs/web.md "A small
 * entry"). Render it inside a Suspense boundary.
 */
export const DueDetails = lazy(() => import('./DueDetails.tsx').then((module) => ({ default: module.DueDetails })));
