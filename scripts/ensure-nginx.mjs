// The load-balancer tests run Debian's nginx (apt-get install nginx), each with a configuration,
// port and temp folder of its own. Installs it when missing and we are root, without letting the
// package's own service start (it would take port 80); otherwise says what to run.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
// Found as the tests find it (apps/server/test/helpers/nginx.ts): NGINX_BIN, /usr/sbin, the PATH.
const onPath = () => {
  try {
    execSync('command -v nginx', { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
if (!fs.existsSync(NGINX) && (process.env.NGINX_BIN || !onPath())) {
  if (process.getuid?.() !== 0) {
    console.error(`nginx is missing at ${NGINX}: run  sudo apt-get install -y nginx`);
    process.exit(1);
  }
  console.log('Installing Debian nginx for the load-balancer tests...');
  execSync('bash scripts/install-nginx.sh', { stdio: 'inherit' });
}
