import { ChangeDetectionStrategy, Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { DisclosureButton } from './disclosure-button';

@Component({
  imports: [DisclosureButton],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <app-disclosure-button look="heading" [(expanded)]="open" controls="details">
      <span class="title">Stage 2</span> Feasibility
    </app-disclosure-button>
    <div id="details" [hidden]="!open()">Details</div>
  `,
})
class Host {
  readonly open = signal(false);
}

describe('DisclosureButton', () => {
  async function render() {
    const fixture = TestBed.createComponent(Host);
    await fixture.whenStable();
    const root = fixture.nativeElement as HTMLElement;
    const button = root.querySelector('button');
    if (!button) throw new Error('no button');
    return { fixture, root, button };
  }

  it('names the button with the caller’s text and hides the chevron from assistive technology', async () => {
    const { button } = await render();

    expect(button.textContent?.replace(/\s+/g, ' ').trim()).toBe('Stage 2 Feasibility');
    expect(button.querySelector('.chevron')?.getAttribute('aria-hidden')).toBe('true');
    expect(button.getAttribute('type')).toBe('button');
    expect(button.classList).toContain('heading');
    expect(button.getAttribute('aria-controls')).toBe('details');
  });

  it('shows and hides what it controls, telling its state through aria-expanded and to its host', async () => {
    const { fixture, root, button } = await render();
    const details = root.querySelector<HTMLElement>('#details');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(details?.hidden).toBe(true);

    button.click();
    await fixture.whenStable();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(fixture.componentInstance.open()).toBe(true);
    expect(details?.hidden).toBe(false);

    button.click();
    await fixture.whenStable();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(details?.hidden).toBe(true);
  });

  it('follows its host when the host opens or closes it', async () => {
    const { fixture, button } = await render();

    fixture.componentInstance.open.set(true);
    await fixture.whenStable();

    expect(button.getAttribute('aria-expanded')).toBe('true');
  });
});
