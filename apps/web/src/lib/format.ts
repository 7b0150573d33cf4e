const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

const parse = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

export const formatDate = (iso: string): string => {
  const d = parse(iso);
  return d ? dateFormat.format(d) : iso;
};

export const formatDateTime = (iso: string): string => {
  const d = parse(iso);
  return d ? dateTimeFormat.format(d) : iso;
};

/** A size as people read it: whole megabytes, `5 MB`. */
export const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
