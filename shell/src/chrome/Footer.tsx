import { COMPANY_LINKS, FREE_TOOLS, LEGAL_LINKS, type NavLink } from './nav-items';
import { useShellConfig } from './shell-config';
import styles from './Footer.module.css';

function LinkColumn({ title, links }: { title: string; links: readonly NavLink[] }) {
  return (
    <nav className={styles.column} aria-label={title}>
      <h2 className={styles.heading}>{title}</h2>
      <ul className={styles.list}>
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href}>{link.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Footer({ year = new Date().getFullYear() }: { year?: number }) {
  const { productName } = useShellConfig();
  return (
    <div className={styles.footer}>
      <div className={styles.columns}>
        <LinkColumn title={productName} links={COMPANY_LINKS} />
        <LinkColumn title="Free Tools" links={FREE_TOOLS} />
        <LinkColumn title="Legal" links={LEGAL_LINKS} />
      </div>
      <p className={styles.copyright}>
        © {year} {productName}. All rights reserved.
      </p>
    </div>
  );
}
