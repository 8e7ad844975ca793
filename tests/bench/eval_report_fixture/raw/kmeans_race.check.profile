phase,us,count
copies and log allocation,100.0,40
level W kernel (two passes per region, checks at barriers),300.0,40
