phase,us,count
copies and log allocation,100.0,384
free buffers,50.0,384
level W kernel (two passes per region, checks at barriers),800.0,384
reports,50.0,384
