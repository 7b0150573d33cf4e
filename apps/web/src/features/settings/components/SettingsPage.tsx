import { IMAGE_UPLOAD_MAX_BYTES, IMAGE_UPLOAD_TYPES } from '@inkwell/contract/constants';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { Avatar } from '../../../components/Avatar.tsx';
import { SubmitButton } from '../../../components/BusyButton.tsx';
import { PageTitle } from '../../../components/Page.tsx';
import { Loading } from '../../../components/Status.tsx';
import { useToasts } from '../../../components/toasts.tsx';
import { isApiError } from '../../../lib/api.ts';
import { megabytes } from '../../../lib/format.ts';
import { useFieldError } from '../../../lib/fieldError.tsx';
import { fieldName } from '../../../lib/formError.ts';
import { paths, routeId } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { useUpdateProfile, useUploadAvatar } from '../api/settings.ts';
import { MyFiltersCard } from './MyFiltersCard.tsx';
import { UserListCard } from './UserLists.tsx';

export const TEXTS = {
  avatarOk: 'Updated profile avatar.',
  avatarFailed: 'Could not update profile avatar.',
  profileOk: 'Updated author profile',
  profileFailed: 'Could not update author profile',
  confirmation: 'Successfully updated!',
};

const FIELDS = [
  { name: 'username', label: 'Username', type: 'text', autoComplete: 'username' },
  { name: 'password', label: 'Password', type: 'password', autoComplete: 'new-password' },
  {
    name: 'current_password',
    label: 'Current password',
    type: 'password',
    autoComplete: 'current-password',
  },
  { name: 'first_name', label: 'First name', type: 'text', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Last name', type: 'text', autoComplete: 'family-name' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
] as const;

const HELP: Partial<Record<(typeof FIELDS)[number]['name'], string>> = {
  password: 'Leave empty to keep your current password.',
  current_password: 'Needed to change your password when you signed in more than 10 minutes ago.',
};

function AvatarForm() {
  const session = useSession();
  const account = session.state.account!;
  const { push } = useToasts();
  const upload = useUploadAvatar({
    onSuccess: () => push(TEXTS.avatarOk, { type: 'SUCCESS' }),
    onError: () => push(TEXTS.avatarFailed, { type: 'ERROR' }),
  });
  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (file) upload.mutate(file);
  };
  return (
    <section className="settings-card" aria-labelledby="avatar-title">
      <h2 id="avatar-title">Avatar</h2>
      <div className="avatar-form">
        <Avatar src={account.avatar} name={account.username} size={112} />
        <div>
          <label className="button button-secondary file-button">
            {upload.isPending ? 'Uploading...' : 'Choose an image'}
            <input
              type="file"
              accept={IMAGE_UPLOAD_TYPES.join(',')}
              onChange={onPick}
              disabled={upload.isPending}
              className="visually-hidden"
            />
          </label>
          <p className="field-help">PNG or JPEG, up to {megabytes(IMAGE_UPLOAD_MAX_BYTES)}.</p>
        </div>
      </div>
    </section>
  );
}

function ProfileForm() {
  const session = useSession();
  const account = session.state.account!;
  const { push } = useToasts();
  const [done, setDone] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const error = useFieldError('profile', form);

  // The session takes the saved account from the answer (useUpdateProfile).
  const save = useUpdateProfile(account.id, {
    onSuccess: () => {
      push(TEXTS.profileOk, { type: 'SUCCESS' });
      setDone(true);
      // A password is changed once: left in the form, the next Update Profile would change it
      // again (and end the other sessions again).
      for (const name of ['password', 'current_password']) {
        const field = form.current?.elements.namedItem(name);
        if (field instanceof HTMLInputElement) field.value = '';
      }
    },
    onError: (err) => {
      // The server names the field at fault (a wrong current password, a taken username).
      if (isApiError(err) && err.status > 0 && err.status < 500) {
        push(TEXTS.profileFailed, { type: 'ERROR' });
        error.show(err.detail, error.fieldsOf(err));
      } else {
        // The form says the toast's words itself, and is heard there: the toast is not announced.
        push(TEXTS.profileFailed, { type: 'ERROR', announce: false });
        error.show(TEXTS.profileFailed);
      }
    },
  });

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '');
    setDone(false);
    error.clear();
    const password = text('password');
    save.mutate({
      username: text('username').trim(),
      // An empty password leaves it unchanged.
      password: password || undefined,
      // The server asks for it when the session is more than 10 minutes old.
      current_password: (password && text('current_password')) || undefined,
      biography: text('biography'),
      first_name: text('first_name').trim(),
      last_name: text('last_name').trim(),
      email: text('email').trim(),
    });
  };

  return (
    <section className="settings-card" aria-labelledby="profile-title">
      <h2 id="profile-title">Personal details</h2>
      <form
        className="form"
        ref={form}
        onSubmit={submit}
        // The error goes once the field it is about (or any, if it names none) is changed.
        onInput={(e) => error.changed(fieldName(e))}
        key={account.username}
      >
        {FIELDS.map((f) => (
          <div className="field" key={f.name}>
            <label htmlFor={`profile-${f.name}`}>{f.label}</label>
            <input
              id={`profile-${f.name}`}
              name={f.name}
              type={f.type}
              autoComplete={f.autoComplete}
              defaultValue={
                f.name === 'password' || f.name === 'current_password' ? '' : account[f.name]
              }
              {...error.fieldProps(f.name, {
                describedBy: HELP[f.name] ? `profile-${f.name}-help` : undefined,
              })}
            />
            {HELP[f.name] && (
              <p id={`profile-${f.name}-help`} className="field-help">
                {HELP[f.name]}
              </p>
            )}
            {error.messageAt(f.name)}
          </div>
        ))}
        <div className="field">
          <label htmlFor="profile-biography">Biography</label>
          <textarea
            id="profile-biography"
            name="biography"
            rows={5}
            defaultValue={account.biography}
            {...error.fieldProps('biography')}
          />
          {error.messageAt('biography')}
        </div>
        {done && (
          <p className="form-success" role="status">
            {TEXTS.confirmation}
          </p>
        )}
        {error.formMessage()}
        <SubmitButton className="button" busy={save.isPending}>
          {save.isPending ? 'Pending...' : 'Update Profile'}
        </SubmitButton>
      </form>
    </section>
  );
}

export function SettingsPage() {
  const { state } = useSession();
  const id = routeId(useParams().authorId);
  if (state.status !== 'in') return <Loading />;
  if (id !== state.account.id) {
    return (
      <div className="page page-narrow">
        <PageTitle>Settings</PageTitle>
        <p>You can only change your own settings.</p>
        <Link className="button" to={paths.settings(state.account.id)}>
          Go to my settings
        </Link>
      </div>
    );
  }
  return (
    <div className="page page-narrow settings">
      <PageTitle>Settings</PageTitle>
      <AvatarForm />
      <ProfileForm />
      <UserListCard kind="blocks" />
      <UserListCard kind="mutes" />
      <MyFiltersCard />
      <section aria-labelledby="feed-settings-title">
        <h2 id="feed-settings-title">Feeds</h2>
        <p>
          Follow new chapters by the authors you follow in a feed reader:{' '}
          <Link to={paths.privateFeed}>make or replace your private feed address</Link>.
        </p>
      </section>
    </div>
  );
}
