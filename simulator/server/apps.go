package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"

	"homologa/simulator/auth"
	"homologa/simulator/errs"
)

// AppsFile is the --apps YAML: companies and apps to pre-register, so a team
// shares stable sandbox credentials across restarts and machines.
//
//	companies:
//	  - cnpj: "11222333000181"
//	    name: Corretora Exemplo
//	    apps:
//	      - name: backend
//	        clientId: exemplo-backend
//	        clientSecret: s3cret-s3cret-s3cret
//	        webhookUrl: http://127.0.0.1:9000/hooks
//	        scopes: [cob.read, cob.write]
type AppsFile struct {
	Companies []struct {
		CNPJ string `yaml:"cnpj"`
		Name string `yaml:"name"`
		Apps []struct {
			Name          string   `yaml:"name"`
			ClientID      string   `yaml:"clientId"`
			ClientSecret  string   `yaml:"clientSecret"`
			WebhookURL    string   `yaml:"webhookUrl"`
			WebhookSecret string   `yaml:"webhookSecret"`
			Scopes        []string `yaml:"scopes"`
			Environment   string   `yaml:"environment"`
		} `yaml:"apps"`
	} `yaml:"companies"`
}

// LoadApps registers what path declares; what already exists (by CNPJ, by
// client id) is left as it is, so the file can be loaded at every start.
func LoadApps(ctx context.Context, svc *auth.Service, path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("apps file: %w", err)
	}
	var f AppsFile
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("apps file %s: %w", path, err)
	}
	for i, c := range f.Companies {
		where := fmt.Sprintf("%s: companies[%d]", path, i)
		// The operator's own company of that CNPJ: one an account
		// registered is another world's, not the file's.
		co, err := svc.OwnedCompany(ctx, auth.Owner{Operator: true}, c.CNPJ)
		if err != nil || co.AccountID != "" {
			if co, err = svc.CreateCompany(ctx, c.CNPJ, c.Name); err != nil {
				return fmt.Errorf("%s: %s", where, describe(err))
			}
		}
		for j, a := range c.Apps {
			where := fmt.Sprintf("%s.apps[%d]", where, j)
			if a.ClientID != "" {
				if _, err := svc.App(ctx, a.ClientID); err == nil {
					continue
				}
			}
			if a.ClientSecret != "" && len(a.ClientSecret) < 16 {
				return fmt.Errorf("%s.clientSecret: must have at least 16 characters", where)
			}
			_, err := svc.CreateApp(ctx, auth.NewApp{
				Company: co.ID, Name: a.Name, ClientID: a.ClientID, ClientSecret: a.ClientSecret,
				WebhookURL: a.WebhookURL, WebhookSecret: a.WebhookSecret, Scopes: a.Scopes, Environment: a.Environment,
			})
			if err != nil {
				return fmt.Errorf("%s: %s", where, describe(err))
			}
		}
	}
	return nil
}

func describe(err error) string {
	var e *errs.Error
	if errors.As(err, &e) && e.Message != "" {
		return e.Message
	}
	return err.Error()
}
