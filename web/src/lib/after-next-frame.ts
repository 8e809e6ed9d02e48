/** How long to wait for a frame: a tab opened in the background draws none until it is shown. */
const FRAME_WAIT_MS = 250;

/**
 * A frame and a task later (what was committed before it is on screen by then), or after
 * FRAME_WAIT_MS without a frame: a hidden tab must not hold back what waits here until
 * someone looks at it.
 */
export function afterNextFrame(): Promise<void> {
  return new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, FRAME_WAIT_MS);
  });
}
