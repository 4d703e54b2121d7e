export { AccountSecurity } from './AccountSecurity';
