// Package portal is the onboarding portal's API (/portal): register an
// account with its company, log in, create the company's App/Client, read
// it, rotate its secrets, set its webhook. It is the spec's onboarding
// sequence, steps 1 to 3. An account sees and changes only its own
// companies and apps; the operator's token reaches all of them.
package portal
