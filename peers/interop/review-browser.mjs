// The review page in a real browser (BrowserReviewIT): Debian's Chromium, headless, driven by
// playwright-core, as the owner on a phone would use it. Signs in by opening a link from
// `notes-mcp owner link`, reads each proposal's block as rendered, approves a new note, approves
// an edit, undoes it, rejects a third proposal, reads the audit trail, and measures the page at a
// phone's width (no horizontal overflow but inside a proposal's own box), with a screenshot.
//
//   node review-browser.mjs BASE LINK NOTE_ID EDIT_ID REJECT_ID SCREENSHOT USER_DATA_DIR
//
// Prints one JSON object on stdout; {"error": ...} when a step failed.
import { chromium } from 'playwright-core';

const [base, link, noteId, editId, rejectId, screenshot, userDataDir] = process.argv.slice(2);
const PHONE = { width: 390, height: 844 };

const report = { steps: [] };
let context;
try {
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: PHONE,
    javaScriptEnabled: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(30_000);

  // The sign-in link, opened as a page: signed in, sent to the owner's home.
  const signedIn = await page.goto(link);
  report.signInStatus = signedIn.status();
  report.afterSignIn = new URL(page.url()).pathname;

  await page.goto(base + '/review');
  report.reviewUrl = new URL(page.url()).pathname;
  report.blocks = await page.$$eval('section.proposal', (sections) =>
    sections.map((s) => ({
      id: s.id.slice(2),
      heading: s.querySelector('h2').innerText,
      text: s.querySelector('pre.view').innerText,
    })),
  );
  // A phone's width: the page itself never scrolls sideways; a proposal's box may.
  report.viewportWidth = await page.evaluate(() => window.innerWidth);
  report.scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  report.boxes = await page.$$eval('pre.view', (pres) =>
    pres.map((p) => ({ client: p.clientWidth, scroll: p.scrollWidth, right: p.getBoundingClientRect().right })),
  );
  await page.screenshot({ path: screenshot, fullPage: true });
  report.scripts = await page.evaluate(() => document.scripts.length);

  async function submit(action, id) {
    await page.goto(base + '/review');
    const form = page.locator(`form[action="${action}"]:has(input[name="id"][value="${id}"])`);
    await Promise.all([page.waitForNavigation(), form.locator('button[type="submit"]').click()]);
    const outcome = {
      action,
      id,
      title: await page.locator('h1').innerText(),
      message: await page.locator('p.message').innerText(),
    };
    report.steps.push(outcome);
  }

  await submit('/review/approve', noteId);
  await submit('/review/approve', editId);
  await submit('/review/undo', editId);
  await submit('/review/reject', rejectId);

  await page.goto(base + '/review');
  report.pendingAfter = await page.$$eval('section.proposal', (s) => s.map((x) => x.id.slice(2)));

  await page.goto(base + '/review/log');
  report.chain = await page.locator('#chain').innerText();
  report.log = await page.locator('pre.log').innerText();

  // Signing out is a form of the owner's home page too; after it the review page is closed.
  await page.goto(base + '/owner');
  await Promise.all([
    page.waitForNavigation(),
    page.locator('form[action="/owner/signout"] button').click(),
  ]);
  report.afterSignOut = new URL(page.url()).pathname;
  await page.goto(base + '/review');
  report.reviewAfterSignOut = new URL(page.url()).pathname;
  report.proposalsShownAfterSignOut = await page.locator('pre.view').count();
} catch (e) {
  report.error = String(e && e.stack ? e.stack : e);
} finally {
  if (context) {
    await context.close();
  }
}
process.stdout.write(JSON.stringify(report) + '\n');
