package auth

import "container/list"

// lru remembers a value per key, the most recently touched in front, and
// at most a bound of keys, forgetting the least recently touched first:
// a flood of keys (addresses, guessed client ids) costs bounded memory.
// The zero value is empty and ready; its owner holds the lock.
type lru[V any] struct {
	keys  map[string]*list.Element
	order *list.List // of *lruEntry[V], the most recently touched in front
}

type lruEntry[V any] struct {
	key string
	v   V
}

// touch returns key's value, made when it has none (forgetting the least
// recently touched past max keys), and moves it to the front.
func (c *lru[V]) touch(key string, max int) *V {
	if c.keys == nil {
		c.keys, c.order = map[string]*list.Element{}, list.New()
	}
	el, ok := c.keys[key]
	if !ok {
		if c.order.Len() >= max {
			c.drop(c.order.Back())
		}
		el = c.order.PushFront(&lruEntry[V]{key: key})
		c.keys[key] = el
	}
	c.order.MoveToFront(el)
	return &el.Value.(*lruEntry[V]).v
}

// get returns key's value, leaving its place alone.
func (c *lru[V]) get(key string) (*V, bool) {
	el, ok := c.keys[key]
	if !ok {
		return nil, false
	}
	return &el.Value.(*lruEntry[V]).v, true
}

// oldest returns the least recently touched key and its value.
func (c *lru[V]) oldest() (string, *V, bool) {
	if c.order == nil || c.order.Len() == 0 {
		return "", nil, false
	}
	e := c.order.Back().Value.(*lruEntry[V])
	return e.key, &e.v, true
}

// forget drops key.
func (c *lru[V]) forget(key string) {
	if el, ok := c.keys[key]; ok {
		c.drop(el)
	}
}

func (c *lru[V]) drop(el *list.Element) {
	delete(c.keys, el.Value.(*lruEntry[V]).key)
	c.order.Remove(el)
}

func (c *lru[V]) len() int { return len(c.keys) }
