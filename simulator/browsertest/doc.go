// Package browsertest is the rig the widget and dashboard tests share: a
// real sandbox on loopback, headless Chromium driven through chromedp, and
// a token for the demo app. Only tests import it.
package browsertest
