import { screen } from '@testing-library/react';

/** A form field by its exact label. */
export const field = (label: string) => screen.getByLabelText(label, { exact: true });

/** The field's accessible description: the texts its aria-describedby names, in order. */
export const description = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ')
    .trim();
