/**
 * Keeps the keyboard on a control that is disabled while its action runs
 * (a submit button, "Send a test", "Delete"). A browser takes the focus off
 * a control as it is disabled and leaves it at the page's start, so a
 * keyboard or screen reader user was sent back to the top after each
 * action. The control takes the focus back when it is enabled again, unless
 * the person has moved on meanwhile or the control has left the page.
 */
export function keepFocusOnBusyControls(root: Node = document.body): void {
  let waiting: HTMLElement | null = null;
  let lastFocused: EventTarget | null = null;
  document.addEventListener('focusin', (event) => {
    lastFocused = event.target;
    if (event.target !== waiting) waiting = null;
  });
  const focusIsNowhere = () => !document.activeElement || document.activeElement === document.body;
  new MutationObserver((changes) => {
    for (const { target } of changes) {
      const control = target as HTMLButtonElement;
      // Some Chromium versions move the focus away as the attribute is set, before this observer runs:
      // the control last focused, with the focus nowhere now, is the one the browser took it from.
      const hadFocus = control === document.activeElement || (control === lastFocused && focusIsNowhere());
      if (control.disabled && hadFocus) waiting = control;
      else if (control === waiting && !control.disabled) {
        waiting = null;
        if (control.isConnected && focusIsNowhere()) control.focus();
      }
    }
  }).observe(root, { subtree: true, attributes: true, attributeFilter: ['disabled'] });
}
