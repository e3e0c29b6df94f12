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
  document.addEventListener('focusin', (event) => {
    if (event.target !== waiting) waiting = null;
  });
  new MutationObserver((changes) => {
    for (const { target } of changes) {
      const control = target as HTMLButtonElement;
      // Observed before the browser moves the focus away, so the control disabled is still the focused one.
      if (control.disabled && control === document.activeElement) waiting = control;
      else if (control === waiting && !control.disabled) {
        waiting = null;
        const active = document.activeElement;
        if (control.isConnected && (!active || active === document.body)) control.focus();
      }
    }
  }).observe(root, { subtree: true, attributes: true, attributeFilter: ['disabled'] });
}
